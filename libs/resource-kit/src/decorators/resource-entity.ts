import { PrimaryColumn } from 'typeorm';
import { Attribute } from './attribute.decorator';
import { ID_COLUMN } from './to-one.decorator';

/** The members every resource has: an opaque id and its creation and update times. */
export abstract class ResourceEntity {
  @PrimaryColumn(ID_COLUMN)
  id!: string;

  @Attribute({ type: 'time', writable: false })
  createdAt!: Date;

  @Attribute({ type: 'time', writable: false })
  updatedAt!: Date;
}
