export { ResourceKitModule, RESOURCE_KIT_OPTIONS } from './resource-kit.module';
export type { ResourceKitOptions } from './resource-kit.module';
