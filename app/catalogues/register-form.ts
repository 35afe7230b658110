/** What the register tab's two forms and the server code behind them share (browser-safe). */
export const INTENT = { single: "individual", batch: "lote" } as const;

/** One uploaded file's outcome, as the batch form lists it. */
export type BatchFileResult = { name: string; ok: boolean; errors: string[] };

export const BATCH_FAILED_HINT =
  "Nenhuma linha dos arquivos com erro foi gravada. Corrija as linhas indicadas e envie de novo.";
