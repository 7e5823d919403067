/**
 * The logged-in console's stylesheet. The login page's stylesheet holds only what the login page
 * can show; the build declares the rest in index.html's inert `<template id="shell-styles">`, to
 * be added after it (build/css-purge.mjs `splitCss` says why that keeps the cascade), and the
 * shell waits for it before it renders.
 */
let loading: Promise<void> | undefined;

const shellLinks = () => [...((document.getElementById('shell-styles') as HTMLTemplateElement | null)?.content.querySelectorAll('link') ?? [])];

/** Adds the shell's stylesheets after the login page's, once; settles when they apply. */
export function loadShellStyles(): Promise<void> {
  if (loading) return loading;
  const links = shellLinks().map((link) => document.importNode(link, true));
  if (links.length === 0) return Promise.resolve();
  loading = Promise.all(links.map((link) => new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => reject(new Error(`stylesheet ${link.getAttribute('href')} did not load`)), { once: true });
    // Before any lazy chunk's own <style>, which is added later and comes last.
    document.head.append(link);
  }))).then(() => undefined, (error: unknown) => {
    // A retry starts over.
    for (const link of links) link.remove();
    loading = undefined;
    throw error;
  });
  return loading;
}
