/** The e2e harness: see apps/web/e2e/README.md. */
export {
  DEFAULT_PASSWORD,
  adminUser,
  appUrl,
  baseUrl,
  callApi,
  fakeIp,
  loginUser,
  registerUser,
  uniqueEmail,
  type ApiResponse,
  type Envelope,
  type ServerUser,
  type TestUser,
} from './api';
export { launchBrowser, setupBrowser, type NewPageOptions } from './browser';
export { withDatabase } from './database';
export { linkIn, waitForMail, type SentMail } from './mail';
export { SCREENSHOT_DIR, screenshot } from './screenshot';
export { authenticator } from './totp';
export { logOutWithMenu, signInWithForm, themeOf } from './ui';
export {
  PUBLIC_ROUTES,
  type TraderWorld,
  adminRoutes,
  arrangeTrader,
  openScreen,
  post,
  traderRoutes,
} from './world';
