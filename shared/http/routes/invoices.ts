// Routes of the `invoices` group. Filled in by the issue that builds the group.
export const invoicesRoutes = {};
