/** The customer a dashboard request acts for, read from its verified session JWT (server/dashboard/routes.ts). */
export type CustomerOf = (request: Request) => number;
