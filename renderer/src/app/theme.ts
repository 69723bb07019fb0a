// Light and dark follow the system (prefers-color-scheme): the Radix dark scales apply under `.dark`.
export function followSystemTheme(root: HTMLElement = document.documentElement): void {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const apply = () => root.classList.toggle('dark', query.matches);
  apply();
  query.addEventListener('change', apply);
}
