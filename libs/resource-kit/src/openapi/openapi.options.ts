import type { PaginationStyle } from '../query/pagination';

/** What the OpenAPI document needs of the service's options. */
export interface OpenApiOptions {
  title: string;
  version: string;
  basePath: string;
  errorKey: string;
  pagination: PaginationStyle;
  pageSize: { default: number; max: number };
}
