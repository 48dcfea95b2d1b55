// The page's two DOM helpers, shared by its modules.

/** An element of the page by its id. @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A new element: `props` its properties (`dataset` its data attributes, `attrs` plain
 * attributes such as `aria-*`), then its children.
 * @param {string} tag @param {Record<string, any>} [props] @param {Array<Node | string>} [children]
 */
export function h(tag, props = {}, children = []) {
  const { dataset = {}, attrs = {}, ...rest } = props;
  const node = Object.assign(document.createElement(tag), rest);
  Object.assign(node.dataset, dataset);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}
