/** The customer a dashboard request acts for, read from its verified session JWT (server/operator/dashboard-routes.ts). */
export type CustomerOf = (request: Request) => number;
