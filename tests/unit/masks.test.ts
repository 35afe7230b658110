import { describe, expect, test } from "vitest";

import { applyMask, formatCnpjText, formatCpfText, formatPhone, MASKS, onlyDigits } from "../../api/domain/masks.ts";

describe("applyMask", () => {
  test("the spec's masks", () => {
    expect(MASKS).toEqual({
      cpf: "000.000.000-00",
      cnpj: "00.000.000/0000-00",
      phone: "(00) 0 0000-0000",
      cep: "00000-000",
      date: "00/00/0000",
    });
  });

  test.each([
    ["cpf", "52998224725", "529.982.247-25"],
    ["cnpj", "11222333000181", "11.222.333/0001-81"],
    ["phone", "85988887777", "(85) 9 8888-7777"],
    ["cep", "60160230", "60160-230"],
    ["date", "12041990", "12/04/1990"],
  ] as const)("%s: %s -> %s", (mask, digits, masked) => {
    expect(applyMask(mask, digits)).toBe(masked);
    // Masking what is already masked changes nothing.
    expect(applyMask(mask, masked)).toBe(masked);
  });

  test("partial input is masked as far as it goes, as the user types", () => {
    expect(applyMask("cpf", "")).toBe("");
    expect(applyMask("cpf", "529")).toBe("529");
    expect(applyMask("cpf", "5299")).toBe("529.9");
    expect(applyMask("cpf", "529982247")).toBe("529.982.247");
    expect(applyMask("cpf", "5299822472")).toBe("529.982.247-2");
    expect(applyMask("phone", "8")).toBe("(8");
    expect(applyMask("phone", "859")).toBe("(85) 9");
    expect(applyMask("date", "120")).toBe("12/0");
    expect(applyMask("cep", "60160")).toBe("60160");
    expect(applyMask("cnpj", "112223330001")).toBe("11.222.333/0001");
  });

  test("non-digits are dropped and extra digits cut", () => {
    expect(applyMask("cpf", "abc529.982x247-25")).toBe("529.982.247-25");
    expect(applyMask("cpf", "5299822472599")).toBe("529.982.247-25");
    expect(applyMask("date", "120419901")).toBe("12/04/1990");
    expect(applyMask("date", "120419901").length).toBe(10);
    expect(applyMask("phone", "8598888777712345").length).toBe(16);
  });
});

describe("helpers", () => {
  test("onlyDigits", () => {
    expect(onlyDigits("(85) 9 8888-7777")).toBe("85988887777");
    expect(onlyDigits("sem dígitos")).toBe("");
  });

  test("formatPhone shows landlines without the extra 9", () => {
    expect(formatPhone("8533334444")).toBe("(85) 3333-4444");
    expect(formatPhone("85988887777")).toBe("(85) 9 8888-7777");
  });

  test("formatCpfText and formatCnpjText", () => {
    expect(formatCpfText("52998224725")).toBe("529.982.247-25");
    expect(formatCnpjText("11222333000181")).toBe("11.222.333/0001-81");
  });
});
