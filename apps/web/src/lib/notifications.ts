// @mantine/notifications with its styles: fetched with the first toast (./toasts.ts), which
// also mounts the container (app/providers.tsx), not with every first screen.
import '@mantine/notifications/styles.css';

export { Notifications, notifications } from '@mantine/notifications';
