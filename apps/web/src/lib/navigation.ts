type Navigate = (to: string) => void;

let navigate: Navigate = (to) => window.location.assign(to);

/**
 * Navigation for code outside React (the API client's 401 handling). The app hands over the
 * router's navigate at start-up so a redirect stays a client-side navigation.
 */
export function setNavigator(next: Navigate): void {
  navigate = next;
}

export function navigateTo(to: string): void {
  navigate(to);
}
