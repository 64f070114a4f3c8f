// Routes of the `payouts` group. Filled in by the issue that builds the group.
export const payoutsRoutes = {};
