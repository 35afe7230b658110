/** The links and form targets of the environment screens (browser-safe): QR downloads, the bulk QR export, the importer. */
export const QR_IMAGE_CHOICES = [
  { format: "jpeg", label: "JPEG" },
  { format: "png", label: "PNG" },
  { format: "svg", label: "SVG" },
] as const;

export type QrDownloadFormat = "pdf" | (typeof QR_IMAGE_CHOICES)[number]["format"];

export const qrDownloadHref = (id: number, format: QrDownloadFormat) => `/ambientes/${id}/qrcode/${format}`;

/** The bulk export: a POST of the ticked ids (a form of tick boxes, so it works without JS). */
export const QR_BULK_ACTION = "/ambientes/qrcodes.pdf";

/** The spreadsheet importer of environments: the list shows 'Importar planilha' beside the exports. */
export const ENVIRONMENT_IMPORTER_HREF = "/ambientes/importar";

/** 'Gerar novo QR code' (docs/qr-codes.md 'Reissuing a code'): the confirmation's words and the toast after. */
export const QR_REISSUE_TEXTS = {
  action: "Gerar novo QR code",
  warning: "O QR code impresso deixará de valer como leitura no local: imprima o novo.",
  done: "Novo QR code gerado",
  doneDescription: "Imprima o novo QR code e troque o que está no ambiente.",
  failed: "Erro ao gerar novo QR code",
  cancel: "Cancelar",
} as const;
