// The embed view's address: the share link with `?embed`, for docs and teaching pages.

const EMBED_PARAM = 'embed';

/** True for `?embed` or an `embed` part in the fragment (`#embed&s=1.…`, `#s=1.…&embed`). */
export function isEmbed(location: Pick<Location, 'search' | 'hash'>): boolean {
  return (
    new URLSearchParams(location.search).has(EMBED_PARAM) || location.hash.slice(1).split('&').includes(EMBED_PARAM)
  );
}

/** The embed view of a share link. */
export function embedUrl(shareUrl: string): string {
  const url = new URL(shareUrl);
  url.searchParams.set(EMBED_PARAM, '');
  return url.href.replace(`${EMBED_PARAM}=`, EMBED_PARAM);
}

/** The full playground for an embed view's address. */
export function playgroundUrl(embedHref: string): string {
  const url = new URL(embedHref);
  url.searchParams.delete(EMBED_PARAM);
  url.hash = url.hash
    .slice(1)
    .split('&')
    .filter((part) => part !== EMBED_PARAM)
    .join('&');
  return url.href;
}
