// Reading the page's library straight from IndexedDB, as the browser holds it.
import type { Page } from '@playwright/test';

export interface StoredEntry {
  id: string;
  name: string;
  scenario: { name: string; inputs: { task?: string }; agent: Record<string, string> };
  versions: unknown[];
}

/** Every library entry in the page's IndexedDB, its summary and content joined (the page must have opened the library). */
export function libraryEntries(page: Page): Promise<StoredEntry[]> {
  return page.evaluate(
    () =>
      new Promise<StoredEntry[]>((resolve, reject) => {
        const request = indexedDB.open('leviath');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const store = db.transaction('library').objectStore('library');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onerror = () => reject(values.error);
          values.onsuccess = () => {
            db.close();
            const byKey = new Map(
              (keys.result as string[]).map((key, i) => [key, values.result[i] as Record<string, unknown>]),
            );
            const entries = [...byKey]
              .filter(([key]) => key.startsWith('entry:'))
              .map(([key, summary]) => {
                const content = byKey.get(`content:${key.slice('entry:'.length)}`);
                return { ...summary, ...content } as unknown as StoredEntry;
              });
            resolve(entries.filter((e) => 'scenario' in e));
          };
        };
      }),
  );
}

/** The names listed in the Scenarios menu, opened and closed again. */
export async function menuNames(page: Page): Promise<string[]> {
  await page.getByTestId('open-scenarios').click();
  // The menu's code is fetched on its first open: evaluateAll reads what is there, so wait for it.
  await page.getByTestId('scenarios').waitFor();
  const names = await page
    .getByTestId('scenarios')
    .locator('li.card')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-entry') ?? ''));
  await page.getByTestId('scenarios').getByRole('button', { name: 'Close' }).click();
  return names;
}
