/**
 * Puts SmartConnect's own site-chat widget (/widget.js, the platform's support channel) on one of our pages; the
 * answer removes it again (a single-page app leaves the page).
 */
export function embedSupportWidget(opts: { channelId: string; token?: string; inline?: string }): () => void {
  const script = document.createElement('script');
  script.src = '/widget.js';
  script.async = true;
  script.dataset.channel = opts.channelId;
  if (opts.token) script.dataset.token = opts.token;
  if (opts.inline) script.dataset.inline = opts.inline;
  document.body.append(script);
  return () => {
    (script as HTMLScriptElement & { scWidget?: { destroy(): void } }).scWidget?.destroy();
    script.remove();
  };
}
