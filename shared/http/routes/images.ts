// Routes of the `images` group. Filled in by the issue that builds the group.
export const imagesRoutes = {};
