/**
 * The Chinese texts the build takes out of the lazily loaded chunks (build/messages.mjs): a list
 * per `defineMessages` call, in the order of its keys, under the name the build gave the call
 * (its `zhAt`). The build writes them here; the console loads them with the logged-in shell when
 * it is in Chinese (i18n.ts, loadCatalogue). In the source every call still carries both
 * languages, so there is nothing here.
 */
export const zh: Record<string, string[]> = {};
