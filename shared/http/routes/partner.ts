// Routes of the `partner` group. Filled in by the issue that builds the group.
export const partnerRoutes = {};
