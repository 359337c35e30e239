// Reading the page's library straight from IndexedDB, as the browser holds it.
import type { Page } from '@playwright/test';

export interface StoredEntry { id: string; name: string; scenario: { name: string; inputs: { task?: string }; agent: Record<string, string> }; versions: unknown[] }

/** Every library entry in the page's IndexedDB (the page must have opened the library). */
export function libraryEntries(page: Page): Promise<StoredEntry[]> {
  return page.evaluate(() => new Promise<StoredEntry[]>((resolve, reject) => {
    const request = indexedDB.open('leviath');
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const all = db.transaction('library').objectStore('library').getAll();
      all.onerror = () => reject(all.error);
      all.onsuccess = () => {
        db.close();
        resolve((all.result as unknown[]).filter((v): v is StoredEntry => typeof v === 'object' && v !== null && 'scenario' in v && 'versions' in v));
      };
    };
  }));
}

/** The names listed in the Scenarios menu, opened and closed again. */
export async function menuNames(page: Page): Promise<string[]> {
  await page.getByTestId('open-scenarios').click();
  const names = await page.getByTestId('scenarios').locator('li.card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-entry') ?? ''));
  await page.getByTestId('scenarios').getByRole('button', { name: 'Close' }).click();
  return names;
}
