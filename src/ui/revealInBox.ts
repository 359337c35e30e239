// Bringing a named region or entry into view without moving the page: on a phone the page is one
// long column, and `scrollIntoView` would scroll the window to the Inspector on a first visit (the
// lesson names a region), so the visitor lands far down instead of on the top of the page.

/** Whether `box` scrolls vertically: its overflow lets it, and its content is taller than it. */
function scrollsVertically(box: HTMLElement): boolean {
  const { overflowY } = getComputedStyle(box);
  return (overflowY === 'auto' || overflowY === 'scroll') && box.scrollHeight > box.clientHeight;
}

/** Scrolls the nearest scrolling box around `el`, never the page itself, just enough to show `el`. */
export function revealInBox(el: HTMLElement): void {
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (!scrollsVertically(box)) continue;
    const top = el.getBoundingClientRect().top - (box.getBoundingClientRect().top + box.clientTop);
    const bottom = top + el.offsetHeight;
    if (top < 0) box.scrollTop += top;
    else if (bottom > box.clientHeight) box.scrollTop += Math.min(top, bottom - box.clientHeight);
    return;
  }
}
