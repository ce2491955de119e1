import type { ReactNode } from 'react';
import { ActionIcon, Group } from '@mantine/core';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from '../../lib/i18n';

/**
 * Reordering by drag (pointer) and by keyboard (focus a handle, space, arrows, space), with
 * what happens read out to screen readers: dnd-kit's sortable lists.
 */
export function SortableList(props: {
  ids: string[];
  nameOf(id: string): string;
  onMove(from: number, to: number): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const position = (id: unknown) => props.ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('surveys.dnd.pickedUp', { name: props.nameOf(String(active.id)) }),
    onDragOver: ({ active, over }) =>
      over ? t('surveys.dnd.over', { name: props.nameOf(String(active.id)), n: position(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('surveys.dnd.dropped', { name: props.nameOf(String(active.id)), n: position(over.id) }) : undefined,
    onDragCancel: ({ active }) => t('surveys.dnd.cancelled', { name: props.nameOf(String(active.id)) }),
  };
  function end(event: DragEndEvent) {
    if (!event.over || event.active.id === event.over.id) return;
    props.onMove(props.ids.indexOf(String(event.active.id)), props.ids.indexOf(String(event.over.id)));
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={end}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('surveys.dnd.instructions') } }}
    >
      <SortableContext items={props.ids} strategy={verticalListSortingStrategy}>
        {props.children}
      </SortableContext>
    </DndContext>
  );
}

/**
 * One sortable item: its drag handle (a button: focusable, moved by keyboard) and its content;
 * `locked`, neither handle nor moving (a template that cannot change).
 */
export function SortableItem(props: {
  id: string;
  handleLabel: string;
  children: ReactNode;
  testId?: string;
  locked?: boolean;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: props.id,
    disabled: props.locked,
  });
  return (
    <div
      ref={setNodeRef}
      data-testid={props.testId}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
      }}
    >
      <Group align="flex-start" gap="xs" wrap="nowrap">
        {!props.locked && (
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={props.handleLabel}
            style={{ cursor: 'grab', touchAction: 'none' }}
            mt={6}
            {...attributes}
            {...listeners}
          >
            <span aria-hidden="true">⠿</span>
          </ActionIcon>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>{props.children}</div>
      </Group>
    </div>
  );
}
