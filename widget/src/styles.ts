/**
 * The widget's styles, inside its shadow root: the host page's rules cannot reach them, and `:host { all: initial }`
 * stops inherited ones (font, colour, line height) at the boundary.
 */
export const STYLES = `
:host{all:initial!important;position:fixed!important;right:16px!important;bottom:16px!important;left:auto!important;top:auto!important;z-index:2147483647!important;display:block!important;width:auto!important;height:auto!important;margin:0!important;padding:0!important;transform:none!important;opacity:1!important;visibility:visible!important;pointer-events:none!important}
:host([data-inline]){position:static!important;pointer-events:auto!important;height:100%!important;width:100%!important}
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:14px;line-height:1.4;color:#1a1b1e;margin:0;padding:0}
[hidden]{display:none!important}
button,textarea,a,input{pointer-events:auto}
.launcher{pointer-events:auto;position:relative;width:56px;height:56px;border-radius:50%;border:0;background:#1864ab;color:#fff;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;margin-left:auto}
.launcher svg{width:28px;height:28px;fill:#fff}
.launcher:focus-visible,button:focus-visible,textarea:focus-visible,a:focus-visible{outline:3px solid #ffd43b;outline-offset:2px}
.badge{position:absolute;top:-4px;right:-4px;min-width:22px;height:22px;border-radius:11px;background:#c92a2a;color:#fff;font-size:12px;font-weight:700;display:flex;align-items:center;justify-content:center;padding:0 6px}
.teaser{pointer-events:auto;background:#fff;border-radius:12px;padding:10px 14px;margin:0 0 10px auto;max-width:260px;box-shadow:0 4px 14px rgba(0,0,0,.18);cursor:pointer;border:0;text-align:left;display:block}
.panel{pointer-events:auto;width:min(370px,calc(100vw - 32px));height:min(560px,calc(100vh - 100px));background:#fff;border-radius:14px;box-shadow:0 8px 30px rgba(0,0,0,.3);display:flex;flex-direction:column;overflow:hidden;margin-bottom:12px}
:host([data-inline]) .panel{width:100%;height:100%;box-shadow:none;border:1px solid #dee2e6;margin:0}
.head{background:#1864ab;padding:12px 14px;display:flex;gap:10px;align-items:center}
.head *{color:#fff}
.head img{width:36px;height:36px;border-radius:50%;object-fit:cover;background:#fff}
.head .t{flex:1;min-width:0}
.head h2{font-size:16px;font-weight:700;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.head p{font-size:12px;opacity:.9}
.x{background:transparent;border:0;cursor:pointer;width:32px;height:32px;border-radius:6px;font-size:22px;line-height:1}
.links{padding:6px 14px;font-size:12px;border-bottom:1px solid #e9ecef;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.links a{color:#1864ab;text-decoration:underline;font-size:12px}
.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f8f9fa}
.m{max-width:82%;padding:8px 10px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere}
.m.in{align-self:flex-end;background:#1864ab;border-bottom-right-radius:4px}
.m.in,.m.in *{color:#fff}
.m.out{align-self:flex-start;background:#fff;border:1px solid #dee2e6;border-bottom-left-radius:4px}
.m .who{display:flex;align-items:center;gap:6px;font-size:12px;font-weight:600;margin-bottom:2px;color:#495057}
.m .who img{width:20px;height:20px;border-radius:50%;object-fit:cover}
.m .meta{font-size:11px;opacity:.8;margin-top:2px;text-align:right}
.m img.att{display:block;max-width:100%;max-height:200px;border-radius:8px;margin-top:4px}
.m a{text-decoration:underline}
.m.welcome{align-self:flex-start;background:#e7f5ff;border:0}
.m.pending{opacity:.6}
.rate{align-self:stretch;background:#fff;border:1px solid #dee2e6;border-radius:12px;padding:10px}
.rate p{font-weight:600;margin-bottom:8px}
.rate .opts{display:flex;flex-wrap:wrap;gap:6px}
.rate button{border:1px solid #1864ab;background:#fff;color:#1864ab;border-radius:16px;padding:4px 10px;cursor:pointer;font-size:13px}
.rate button:hover{background:#e7f5ff}
.bot-buttons{display:flex;flex-wrap:wrap;gap:6px;align-self:flex-start;max-width:85%}
.bot-buttons .btn{border:1px solid #1864ab;background:#fff;color:#1864ab;border-radius:16px;padding:6px 12px;cursor:pointer;font-size:13px;text-decoration:none}
.bot-buttons .btn:hover{background:#e7f5ff}
.err{color:#c92a2a;font-size:12px;padding:4px 12px 0;min-height:0}
.err:empty{display:none}
.typing{font-size:12px;padding:2px 12px;color:#495057;background:#f8f9fa;font-style:italic}
.typing:empty{display:none}
.intro{padding:6px 14px;border-bottom:1px solid #e9ecef;background:#fff}
.intro .link{border:0;background:transparent;color:#1864ab;text-decoration:underline;cursor:pointer;font-size:13px;padding:2px 0}
.introform{display:flex;flex-direction:column;gap:6px;padding:6px 0 4px;border:0;align-items:stretch}
.introform label{display:flex;flex-direction:column;gap:2px;font-size:12px;color:#495057}
.introform label span{font-size:12px;color:#495057}
.introform input{border:1px solid #ced4da;border-radius:6px;padding:6px 8px;background:#fff;pointer-events:auto}
.introform input:focus-visible{outline:3px solid #ffd43b;outline-offset:1px}
.introform .hint{font-size:12px;color:#495057}
.introform .bad{font-size:12px;color:#c92a2a}
.introform .bad:empty{display:none}
.introform .save{align-self:flex-start;border:0;border-radius:6px;background:#1864ab;color:#fff;padding:6px 14px;cursor:pointer;pointer-events:auto}
.state{font-size:12px;padding:4px 12px;background:#fff3bf;color:#5c3c00}
.state:empty{display:none}
form{display:flex;gap:6px;padding:8px;border-top:1px solid #e9ecef;align-items:flex-end;background:#fff}
textarea{flex:1;resize:none;border:1px solid #ced4da;border-radius:8px;padding:8px;min-height:40px;max-height:120px;background:#fff}
.icon{border:0;background:#f1f3f5;border-radius:8px;width:40px;height:40px;cursor:pointer;display:flex;align-items:center;justify-content:center;flex:none}
.icon svg{width:20px;height:20px;fill:#495057}
.icon.send{background:#1864ab}
.icon.send svg{fill:#fff}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
input[type=file]{display:none}
@media (max-width:480px){:host(:not([data-inline])){right:8px!important;bottom:8px!important}.panel{width:calc(100vw - 16px);height:calc(100vh - 90px)}}
`;
