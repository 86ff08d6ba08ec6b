import { type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Space between two rows of the conversation (the row's own bottom padding, part of its measured height). */
export const ROW_GAP = 12;
/** Rows are drawn this far above and below the view, so a scroll shows drawn rows before the next frame. */
const OVERSCAN = 900;
/** Estimated heights of rows not drawn yet (replaced by their measured height once drawn). */
const ESTIMATE: Record<string, number> = { day: 40, event: 40, message: 84 };

type Row = { key: string; type: string };

/**
 * The conversation's window over its rows (variable heights, as the chat list's VirtualList for fixed ones): only
 * the rows in and around the view are in the DOM, above and below them two spacers hold the height of the rest
 * (measured rows at their height, others estimated). A row measured at a new height above the view moves the scroll
 * position by the difference, so what is on screen does not jump. `pin` keeps one row drawn (a search hit).
 */
export function useWindow(box: RefObject<HTMLDivElement | null>, rows: Row[], pin: string | null) {
  const heights = useRef(new Map<string, number>());
  const [version, setVersion] = useState(0);
  // The view: scroll position and height; Infinity until the first scroll, i.e. the newest rows.
  const [view, setView] = useState({ top: Number.POSITIVE_INFINITY, height: 800 });
  const spacer = useRef<HTMLDivElement>(null);

  const offsets = useMemo(() => {
    void version;
    const o = new Array<number>(rows.length + 1);
    o[0] = 0;
    for (let i = 0; i < rows.length; i++)
      o[i + 1] = o[i] + (heights.current.get(rows[i].key) ?? ESTIMATE[rows[i].type] ?? 60);
    return o;
  }, [rows, version]);
  const index = useMemo(() => new Map(rows.map((r, i) => [r.key, i])), [rows]);
  const total = offsets[rows.length];

  // The rows' top inside the scroll box (the header above them: 'load earlier', 'start of the conversation').
  const rowsTop = spacer.current?.offsetTop ?? 0;
  const viewTop = Number.isFinite(view.top) ? view.top - rowsTop : total - view.height;
  let start = 0;
  while (start < rows.length && offsets[start + 1] < viewTop - OVERSCAN) start++;
  let end = start;
  while (end < rows.length && offsets[end] <= viewTop + view.height + OVERSCAN) end++;
  const pinned = pin ? index.get(pin) : undefined;
  if (pinned !== undefined) {
    start = Math.min(start, Math.max(0, pinned - 3));
    end = Math.max(end, Math.min(rows.length, pinned + 4));
  }

  const state = useRef({ offsets, index, rowsTop });
  state.current = { offsets, index, rowsTop };
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            const el = box.current;
            let changed = false;
            let shift = 0;
            for (const e of entries) {
              const node = e.target as HTMLElement;
              const key = node.dataset.row;
              const h = e.borderBoxSize?.[0]?.blockSize ?? node.offsetHeight;
              if (!key || !h || !node.isConnected) continue;
              const i = state.current.index.get(key);
              const before =
                heights.current.get(key) ??
                (i === undefined ? h : state.current.offsets[i + 1] - state.current.offsets[i]);
              if (Math.abs(before - h) < 0.5) continue;
              heights.current.set(key, h);
              changed = true;
              // Entirely above the view: the rows in view would move by the difference; the scroll follows them.
              if (
                el &&
                i !== undefined &&
                state.current.offsets[i] + before <= el.scrollTop - state.current.rowsTop
              )
                shift += h - before;
            }
            if (el && shift) el.scrollTop += shift;
            if (changed) setVersion((v) => v + 1);
          }),
    [box],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  /** The ref of a drawn row: measured while it is in the DOM. */
  const measure = useCallback(
    (node: HTMLDivElement | null) => {
      if (!node || !observer) return;
      observer.observe(node);
      return () => observer.unobserve(node);
    },
    [observer],
  );

  // The view follows the box: on scroll (one update a frame) and when the box changes size.
  const frame = useRef(0);
  const onScroll = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const el = box.current;
      if (el) setView({ top: el.scrollTop, height: el.clientHeight });
    });
  }, [box]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const resize = new ResizeObserver(() => setView((v) => ({ ...v, height: el.clientHeight })));
    resize.observe(el);
    return () => {
      resize.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [box]);

  return {
    start,
    end,
    before: offsets[start],
    after: total - offsets[end],
    spacer,
    measure,
    onScroll,
    version,
  };
}
