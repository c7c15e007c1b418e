// @ts-check
// Going to another page without loading it: the address changes and the router shows
// what it names. Pages import this; the router, which imports the pages, sets `show`.

/** Shows the page the address names: the router's. */
let show = () => {};

/** @param {() => void} router */
export function setRouter(router) {
  show = router;
}

/** @param {string} url */
export function navigate(url) {
  history.pushState(null, '', url);
  show();
}
