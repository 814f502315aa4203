/** How member names appear on the wire; one choice for the whole service. */
export type KeyCasing = 'snake_case' | 'camelCase';

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function wireName(property: string, casing: KeyCasing): string {
  return casing === 'snake_case' ? snakeCase(property) : property;
}
