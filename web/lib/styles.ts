/**
 * Adds a lazy chunk's own CSS to the page once, as a <style> element with `id` (the chunk's
 * styles travel with it instead of the login page's stylesheet).
 */
export function addStyleSheet(id: string, css: string): void {
  if (typeof document === 'undefined' || document.getElementById(id)) return;
  const style = document.createElement('style');
  style.id = id;
  style.textContent = css;
  document.head.append(style);
}
