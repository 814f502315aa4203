import { PrimaryColumn } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Attribute } from './attribute.decorator';
import { isStorableText } from '../validation/formats';
import { ID_COLUMN } from '../metadata/definition';

/** The members every resource has: an opaque id and its creation and update times. */
export abstract class ResourceEntity {
  @PrimaryColumn(ID_COLUMN)
  id!: string;

  @Attribute({ type: 'time', writable: false, description: 'When the resource was created (UTC)' })
  createdAt!: Date;

  @Attribute({
    type: 'time',
    writable: false,
    description: 'When the resource last changed (UTC)',
  })
  updatedAt!: Date;
}

/**
 * The members the kit sets on every new row: a fresh id (UUID v7, ordered by time) and both
 * times. For rows a service writes itself (order lines, events, revisions).
 * @example manager.insert(Event, { ...newRow(), action: 'created', ... })
 */
export function newRow(now = new Date()): Pick<ResourceEntity, 'id' | 'createdAt' | 'updatedAt'> {
  return { id: uuidv7(), createdAt: now, updatedAt: now };
}

/** Whether an id from a request could name a row: text the id column can hold. */
export function isStorableId(id: string): boolean {
  return id.length <= ID_COLUMN.length && isStorableText(id);
}
