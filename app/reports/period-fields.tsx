/**
 * A report's period in a GET form: 'Data inicial' and 'Data final', and the dates shown travelling as inicioAnterior /
 * fimAnterior, the view the report frame goes back to when the dates asked for are refused (app/reports/frame.server.ts).
 */
export function PeriodFields({ from, to }: { from: string; to: string }) {
  return (
    <>
      <div className="field field-date">
        <label htmlFor="inicio">Data inicial</label>
        <input id="inicio" name="inicio" type="date" defaultValue={from} required />
      </div>
      <div className="field field-date">
        <label htmlFor="fim">Data final</label>
        <input id="fim" name="fim" type="date" defaultValue={to} required />
      </div>
      <input type="hidden" name="inicioAnterior" value={from} />
      <input type="hidden" name="fimAnterior" value={to} />
    </>
  );
}
