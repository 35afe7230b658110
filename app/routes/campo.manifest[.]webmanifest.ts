/** The field app's web app manifest: a phone can install 'Limpeza' on its home screen (docs/field-app.md). */
export const loader = () =>
  Response.json(
    {
      name: "Limpeza · equipe",
      short_name: "Limpeza",
      description: "As limpezas do dia, do QR code do ambiente ao registro, mesmo sem sinal.",
      lang: "pt-BR",
      start_url: "/campo",
      scope: "/campo",
      display: "standalone",
      background_color: "#f3f6f8",
      theme_color: "#00697a",
      icons: [
        { src: "/campo/icone-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
        { src: "/campo/icone-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
      ],
    },
    { headers: { "content-type": "application/manifest+json", "cache-control": "public, max-age=3600" } },
  );
