// Routes of the `checkouts` group. Filled in by the issue that builds the group.
export const checkoutsRoutes = {};
