import type { Tab } from '../view-state.js';

interface RunTabsProps {
  tabs: readonly Tab[];
  tab: Tab;
  rounds: number;
  pressureFiles: number;
  onTab: (tab: Tab) => void;
}

function tabLabel(name: Tab, rounds: number, pressureFiles: number): string {
  switch (name) {
    case 'totals':
      return 'Totals';
    case 'rounds':
      return `Rounds (${rounds})`;
    case 'compare':
      return 'Compare';
    case 'rulebook':
      return 'Rulebook';
    case 'pressure':
      return `Pressure (${pressureFiles})`;
  }
}

/** The views of the run as tabs per the ARIA practices: one tab stop, Left/Right/Home/End move and select. */
export function RunTabs({ tabs, tab, rounds, pressureFiles, onTab }: RunTabsProps) {
  const onKey = (event: React.KeyboardEvent<HTMLElement>) => {
    const at = tabs.indexOf(tab);
    const moves: Record<string, number> = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const name = tabs[moves[event.key] ?? -1];
    if (name === undefined) return;
    event.preventDefault();
    onTab(name);
    document.getElementById(`tab-${name}`)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label="Views of the run" onKeyDown={onKey}>
      {tabs.map((name) => (
        <button
          key={name}
          id={`tab-${name}`}
          type="button"
          role="tab"
          aria-selected={tab === name}
          aria-controls="tab-panel"
          tabIndex={tab === name ? 0 : -1}
          className={tab === name ? 'on' : ''}
          data-testid={`tab-${name}`}
          onClick={() => onTab(name)}
        >
          {tabLabel(name, rounds, pressureFiles)}
        </button>
      ))}
    </div>
  );
}
