import { Tabs } from '@mantine/core';
import type { AttemptResource } from './case-resources';
import { ResourceView } from '../../components/resource-view';
import classes from './case-resource-tabs.module.css';

/** The case's resources, one tab each (loaded with the first case that has any). */
export function CaseResourceTabs({ items }: { items: AttemptResource[] }) {
  return (
    <Tabs defaultValue={items[0]!.id} keepMounted={false} classNames={{ tab: classes.tab }}>
      <Tabs.List>
        {items.map((r) => (
          <Tabs.Tab key={r.id} value={r.id}>
            {r.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {items.map((r) => (
        <Tabs.Panel key={r.id} value={r.id} pt="md">
          <ResourceView
            name={r.name}
            type={r.source_type}
            details={r.details}
            link={r.link}
            file={r.file}
            view={r.view}
            download={r.download}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
