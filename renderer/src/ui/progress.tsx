import { ProgressBar as AriaProgressBar } from 'react-aria-components';

export function ProgressBar({
  value,
  label,
  tone = 'accent',
  showValue = false,
}: {
  value?: number;
  label: string;
  tone?: 'accent' | 'success' | 'danger';
  showValue?: boolean;
}) {
  return (
    <AriaProgressBar
      className={`progress progress-${tone}`}
      value={value}
      isIndeterminate={value === undefined}
      aria-label={label}
    >
      {({ percentage, valueText }) => (
        <>
          <div className="progress-track">
            <div
              className="progress-fill"
              style={{ width: value === undefined ? '40%' : `${percentage}%` }}
            />
          </div>
          {showValue && <span className="progress-value">{valueText}</span>}
        </>
      )}
    </AriaProgressBar>
  );
}
