// Routes of the `properties` group. Filled in by the issue that builds the group.
export const propertiesRoutes = {};
