import { Widget } from './widget.ts';

/**
 * `<script src="{PUBLIC_URL}/widget.js" data-channel="{channelId}" async></script>`: one widget per tag, talking to
 * the server the script came from. `data-token` (a signed-in user's support identity) and `data-inline` (a CSS
 * selector of the element to render into) are for SmartConnect's own pages.
 */
function boot(): void {
  const scripts = document.querySelectorAll<HTMLScriptElement>('script[data-channel]');
  for (const script of scripts) {
    if (script.dataset.scBooted) continue;
    script.dataset.scBooted = '1';
    const channelId = script.dataset.channel ?? '';
    if (!/^[0-9a-f-]{36}$/i.test(channelId)) continue;
    const inline = script.dataset.inline ? document.querySelector<HTMLElement>(script.dataset.inline) : null;
    const widget = new Widget({
      base: new URL(script.src, location.href).origin,
      channelId,
      token: script.dataset.token || undefined,
      inline: inline ?? undefined,
    });
    (window as unknown as { SmartConnectWidget?: Widget }).SmartConnectWidget = widget;
    // The page that added the tag can remove the widget with it: script.scWidget.destroy().
    (script as HTMLScriptElement & { scWidget?: Widget }).scWidget = widget;
    void widget.start();
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
