// Routes of the `contacts` group. Filled in by the issue that builds the group.
export const contactsRoutes = {};
