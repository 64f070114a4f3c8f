// Routes of the `forms` group. Filled in by the issue that builds the group.
export const formsRoutes = {};
