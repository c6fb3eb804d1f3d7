/**
 * Holds the open report form at screen level. A form opened from a list item must outlive that item:
 * the lists refetch while the driver types (a report queued from elsewhere, a photo removed, a reconnect)
 * and the item may re-render or vanish, yet what was typed must stay.
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { ReportForm, type ReportFormProps } from './ReportForm.tsx';

export type ReportFormRequest = Omit<ReportFormProps, 'onClose'>;

const OpenReportForm = createContext<((request: ReportFormRequest) => void) | null>(null);

export function ReportFormHost({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ReportFormRequest | null>(null);
  return (
    <OpenReportForm.Provider value={setRequest}>
      {children}
      {request ? <ReportForm {...request} onClose={() => setRequest(null)} /> : null}
    </OpenReportForm.Provider>
  );
}

export function useOpenReportForm(): (request: ReportFormRequest) => void {
  const open = useContext(OpenReportForm);
  if (!open) throw new Error('useOpenReportForm needs a ReportFormHost above it');
  return open;
}
