import type { FastifyInstance } from 'fastify';

/**
 * The API reference at /api/docs (issue 34): a quick start, then the routes an organisation API key may call
 * (grouped by area, each with its scope, a curl example and an example answer), then every other route, then the
 * event webhooks (the envelope, and each event type with when it is sent, an example body and its data's schema).
 * Built in the browser from /api/openapi.json; the script is a file of ours (the CSP allows no inline script).
 */

/**
 * The quick start, served as /api/docs/quickstart.sh and shown on the page; a test runs it against a started server.
 * It needs curl and a key with the scopes channels:read, chats:read and chats:write.
 */
export const QUICKSTART = `#!/usr/bin/env bash
# SmartConnect API quick start. Make a key in Preferences -> Integrations -> API keys with the scopes
# channels:read, chats:read and chats:write, then:  BASE=http://localhost:3000 KEY=sck_... bash quickstart.sh
set -euo pipefail
BASE="\${BASE:-http://localhost:3000}"
KEY="\${KEY:?set KEY to an API key}"
api() { curl -sS --fail-with-body -H "X-Api-Key: $KEY" -H 'content-type: application/json' "$@"; }

echo '1. The channels of the organisation:'
api "$BASE/api/channels"; echo

echo '2. The chats waiting for an operator:'
waiting=$(api "$BASE/api/chats?filter=waiting")
echo "$waiting"

# The first chat's id: the first "id" of the list.
chat=$(printf '%s' "$waiting" | grep -o '"id":"[^"]*"' | head -n 1 | cut -d '"' -f 4)
if [ -z "$chat" ]; then echo 'Nobody is waiting: write to one of the channels first.'; exit 0; fi

echo "3. Its messages:"
api "$BASE/api/chats/$chat/messages"; echo

echo "4. An answer to it:"
api -X POST "$BASE/api/chats/$chat/messages" -d '{"text":"Hello from the API quick start"}'; echo
`;

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SmartConnect API</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:0;color:#1a1b1e}header{background:#1864ab;color:#fff;padding:16px 24px}
main{max-width:1100px;margin:0 auto;padding:16px 24px}section.op{border:1px solid #dee2e6;border-radius:8px;margin:10px 0;padding:10px 14px}
h2{font-size:18px;margin:28px 0 6px}h3{font-size:15px;margin:18px 0 4px;color:#343a40}
.m{display:inline-block;min-width:64px;font-weight:700;font-family:monospace}.GET{color:#2b8a3e}.POST{color:#1864ab}.PATCH,.PUT{color:#a85d00}.DELETE{color:#c92a2a}
.scope{display:inline-block;background:#e7f5ff;color:#1864ab;border-radius:4px;padding:0 6px;font-size:12px;font-family:monospace}
code,pre{font-family:ui-monospace,monospace;font-size:12px}pre{background:#f8f9fa;padding:8px;overflow:auto;max-height:320px}
small{color:#495057}a{color:#1864ab}header a{color:#fff}</style></head>
<body><header><h1 style="margin:0;font-size:20px">SmartConnect API reference</h1><small style="color:#e7f5ff">OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a></small></header>
<main id="root">Loading…</main><script src="/api/docs/app.js"></script></body></html>`;

const script = `(async()=>{
const doc=await (await fetch('/api/openapi.json')).json();
const quick=await (await fetch('/api/docs/quickstart.sh')).text();
const root=document.getElementById('root');root.textContent='';
const esc=s=>String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
const add=(html)=>{const d=document.createElement('div');d.innerHTML=html;root.appendChild(d);};
add('<h2 id="quick-start">Quick start</h2><p>Every answer is <code>{code, entity, error}</code>. Make an API key in Preferences → Integrations → API keys and send it as <code>X-Api-Key</code> (or <code>Authorization: Bearer</code>). Download <a href="/api/docs/quickstart.sh">quickstart.sh</a>:</p><pre>'+esc(quick)+'</pre>');
const origin=location.origin;
const ops=[];for(const [path,byMethod] of Object.entries(doc.paths))for(const [m,op] of Object.entries(byMethod))ops.push({path,m:m.toUpperCase(),op});
const scopeOf=op=>{const k=(op.security||[]).find(s=>s.apiKeyHeader);return k?k.apiKeyHeader[0]:null;};
const json=(c)=>c&&c['application/json'];
function curl(o,scope){const url=origin+o.path.replace(/\\{(\\w+)\\}/g,(_,n)=>'<'+n+'>');const body=o.op.requestBody&&json(o.op.requestBody.content);
return 'curl'+(o.m==='GET'?'':' -X '+o.m)+' "'+url+'" \\\\\\n  -H "'+(scope?'X-Api-Key: sck_…':'Authorization: Bearer <session token>')+'"'+(body&&body.example!==undefined?' \\\\\\n  -H "content-type: application/json" -d \\''+JSON.stringify(body.example)+'\\'':'');}
function section(o){const scope=scopeOf(o.op);const ok=o.op.responses&&o.op.responses['200'];const answer=ok&&json(ok.content);
return '<section class="op" id="'+esc(o.m+' '+o.path)+'"><div><span class="m '+o.m+'">'+o.m+'</span> <code>'+esc(o.path)+'</code> — '+esc(o.op.summary||'')+(scope?' <span class="scope">'+esc(scope)+'</span>':'')+'</div><small>'+esc(o.op.description||'')+'</small>'+
'<details><summary>Example request</summary><pre>'+esc(curl(o,scope))+'</pre></details>'+
(answer&&answer.example!==undefined?'<details><summary>Example answer</summary><pre>'+esc(JSON.stringify(answer.example,null,2))+'</pre></details>':'')+
(o.op.requestBody?'<details><summary>Body schema</summary><pre>'+esc(JSON.stringify(json(o.op.requestBody.content)?json(o.op.requestBody.content).schema:o.op.requestBody,null,2))+'</pre></details>':'')+
(o.op.parameters&&o.op.parameters.length?'<details><summary>Parameters</summary><pre>'+esc(JSON.stringify(o.op.parameters,null,2))+'</pre></details>':'')+'</section>';}
function group(title,id,list){if(!list.length)return;const tags=[...new Set(list.map(o=>(o.op.tags||['other'])[0]))].sort();
add('<h2 id="'+id+'">'+esc(title)+'</h2>'+tags.map(t=>'<h3>'+esc(t)+'</h3>'+list.filter(o=>(o.op.tags||['other'])[0]===t).map(section).join('')).join(''));}
group('Routes for API keys','api-key-routes',ops.filter(o=>scopeOf(o.op)));
group('Other routes (the web app, providers, public pages)','other-routes',ops.filter(o=>!scopeOf(o.op)));
const webhooks=doc['x-webhook-events'];
if(webhooks){const {events,...envelope}=webhooks;
add('<h2 id="events">Event webhooks</h2><pre>'+esc(JSON.stringify(envelope,null,2))+'</pre>'+Object.entries(events||{}).map(([type,e])=>'<section class="op" id="event-'+esc(type)+'"><div><code>'+esc(type)+'</code> — '+esc(e.description)+'</div>'+
'<details><summary>Example body</summary><pre>'+esc(JSON.stringify(e.example,null,2))+'</pre></details>'+
'<details><summary>Data schema</summary><pre>'+esc(JSON.stringify(e.data,null,2))+'</pre></details></section>').join(''));}
})();
`;

export function registerApiDocs(fastify: FastifyInstance): void {
  fastify.get('/api/docs', async (_req, reply) => reply.type('text/html').send(page));
  fastify.get('/api/docs/app.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').send(script),
  );
  fastify.get('/api/docs/quickstart.sh', async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', 'inline; filename="quickstart.sh"')
      .send(QUICKSTART),
  );
}
