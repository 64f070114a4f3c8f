// Routes of the `responses` group. Filled in by the issue that builds the group.
export const responsesRoutes = {};
