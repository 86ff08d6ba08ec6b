import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A windowed list of fixed-height rows: only the rows in view (and a few around them) are in the DOM, so 10,000
 * chats scroll like 10. Calls `onEnd` when the last rows come into view (the next cursor page).
 */
export function VirtualList<T>({
  items,
  rowHeight,
  render,
  getKey,
  onEnd,
  label,
  testId,
  activeKey = null,
}: {
  items: T[];
  rowHeight: number;
  render: (item: T, index: number) => ReactNode;
  getKey: (item: T) => string;
  onEnd?: () => void;
  label: string;
  testId?: string;
  /** The row brought into view when it becomes the active one (the open chat, moved to by keyboard). */
  activeKey?: string | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const resize = new ResizeObserver(() => setHeight(el.clientHeight));
    resize.observe(el);
    return () => resize.disconnect();
  }, []);
  const overscan = 6;
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + overscan);
  // Only a new active row scrolls the list: the open chat moving up on a new message leaves the view alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: items are read when the active row changes
  useEffect(() => {
    const el = ref.current;
    const index = activeKey ? items.findIndex((item) => getKey(item) === activeKey) : -1;
    if (!el || index < 0) return;
    const y = index * rowHeight;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = y + rowHeight - el.clientHeight;
  }, [activeKey, rowHeight]);
  useEffect(() => {
    if (onEnd && last >= items.length - overscan && items.length > 0) onEnd();
  }, [last, items.length, onEnd]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scroll box of absolutely placed rows, not a list's markup
    <div
      ref={ref}
      role="list"
      aria-label={label}
      data-testid={testId}
      data-chat-list
      tabIndex={-1}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      style={{ overflowY: 'auto', flex: 1, minHeight: 0, position: 'relative' }}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(first, last).map((item, i) => (
          <div
            key={getKey(item)}
            style={{
              position: 'absolute',
              top: (first + i) * rowHeight,
              left: 0,
              right: 0,
              height: rowHeight,
            }}
          >
            {render(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
