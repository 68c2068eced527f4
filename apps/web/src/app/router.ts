import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { routes } from './routes';

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // A 401 anywhere sends the user to Login through the router, without a page reload.
  setNavigator((to) => void router.navigate(to, { replace: true }));
  return router;
}
