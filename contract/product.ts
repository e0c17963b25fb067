// The product's name, once: the page title, the manifest (kept equal by contract/product.test.ts), the
// sidebar, the sign-in screen, the authenticator entry and the recovery-codes file all say this.
export const PRODUCT_NAME = 'ArbiTrade';
