/**
 * Whether an installation's public address (PUBLIC_URL, or the address the admin opened the app at) looks like one a
 * provider on the internet can post webhooks to: HTTPS on a host name with a dot or a public IP address. Loopback,
 * private, link-local and shared (CGNAT) addresses, and names of local networks (`localhost`, `*.local`, `*.lan`,
 * `*.internal`, `*.home.arpa`, a name without a dot) do not: a channel that can read its provider by polling instead
 * (Telegram's getUpdates) defaults to polling there. A guess from the address alone: the admin can always choose.
 */
export function addressTakesWebhooks(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:') return false;
  const host = u.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host.includes(':')) return publicIpv6(host);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return publicIpv4(v4.slice(1).map(Number));
  if (!host.includes('.')) return false;
  return !LOCAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
}

const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'lan',
  'internal',
  'intranet',
  'home.arpa',
  'localdomain',
  'test',
  'invalid',
];

function publicIpv4([a, b]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

function publicIpv6(host: string): boolean {
  // An IPv4-mapped address (the URL parser writes it in hex: ::ffff:c0a8:1 for 192.168.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = Number.parseInt(mapped[1], 16);
    return publicIpv4([high >> 8, high & 255]);
  }
  if (host === '::' || host === '::1') return false;
  // fc00::/7 unique-local, fe80::/10 link-local, ff00::/8 multicast
  return !/^(f[cd]|fe[89ab]|ff)/.test(host);
}
