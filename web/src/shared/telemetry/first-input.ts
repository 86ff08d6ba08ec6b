/** FID, which web-vitals 5 no longer reports, from the first input. */
export function observeFirstInput(report: (fid: number) => void): void {
  if (typeof PerformanceObserver === 'undefined') return;
  try {
    const observer = new PerformanceObserver((list) => {
      const entry = list.getEntries()[0] as PerformanceEventTiming | undefined;
      if (!entry) return;
      observer.disconnect();
      report(entry.processingStart - entry.startTime);
    });
    observer.observe({ type: 'first-input', buffered: true });
  } catch {
    // Browsers without first-input timing: no FID.
  }
}
