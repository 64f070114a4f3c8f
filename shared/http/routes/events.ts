// Routes of the `events` group. Filled in by the issue that builds the group.
export const eventsRoutes = {};
