// Routes of the `docs` group. Filled in by the issue that builds the group.
export const docsRoutes = {};
