// The webview's theme surface, applied as VS Code's webview preload (pre/index.html,
// applyStyles) does: every --vscode-* variable on <html> replaced, one body class per theme
// kind (High Contrast Light also keeps "vscode-high-contrast" for backwards compatibility) and
// data-vscode-theme-kind / -name / -id on <body>. Loaded as a classic script at the top of
// <body>, so the theme is in place before anything renders; `vscodeTheme.apply(name)` switches
// it live, as VS Code does when the person picks another colour theme.
import data from "./themes.json";

type ThemeName = keyof typeof data.themes;

const KIND_CLASSES = ["vscode-light", "vscode-dark", "vscode-high-contrast", "vscode-high-contrast-light"];

function apply(name: string): void {
  const theme = (data.themes as Record<string, (typeof data.themes)[ThemeName]>)[name];
  if (!theme) throw new Error(`unknown theme ${name}; known: ${Object.keys(data.themes).join(", ")}`);
  const style = document.documentElement.style;
  for (let i = style.length - 1; i >= 0; i--) {
    const property = style.item(i);
    if (property.startsWith("--vscode-")) style.removeProperty(property);
  }
  const variables: Record<string, string> = { ...data.fonts, ...theme.colors };
  for (const [key, value] of Object.entries(variables)) style.setProperty(`--vscode-${key}`, value);
  const body = document.body;
  body.classList.remove(...KIND_CLASSES);
  body.classList.add(...theme.classes);
  body.dataset.vscodeThemeKind = theme.kind;
  body.dataset.vscodeThemeName = theme.label;
  body.dataset.vscodeThemeId = theme.id;
}

const params = new URLSearchParams(location.search);
apply(params.get("theme") ?? "dark");
(window as unknown as { vscodeTheme: unknown }).vscodeTheme = { apply, names: Object.keys(data.themes) };
