// Every metadata key of the kit. Decorators write them; metadata/definition.reader.ts reads them.
export const RESOURCE_OPTIONS = Symbol('resource-kit:resource');
export const RESOURCE_MEMBERS = Symbol('resource-kit:members');
export const RESOURCE_POLYMORPHIC = Symbol('resource-kit:polymorphic');
// On each resource controller (inherited by a team's subclass): the resource type it serves.
export const RESOURCE_ROUTE = Symbol('resource-kit:route');
