import type { ColumnType, Generated } from "kysely";

/** Row types of the tables in migrations/, for Kysely. Dates are kept as 'YYYY-MM-DD' strings, times as 'HH:MM:SS'. */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DateText = ColumnType<string, string, string>;

export interface CompaniesTable {
  id: Generated<number>;
  nome: string;
  cnpj: string;
  endereco: Generated<string>;
  numero: Generated<string>;
  bairro: Generated<string>;
  cidade: Generated<string>;
  ativo: Generated<boolean>;
  max_number_users: Generated<number>;
  created_at: CreatedAt;
}

export interface BoardsTable {
  id: number;
  label: string;
  is_default: Generated<boolean>;
}

export interface CompanyBoardsTable {
  company_id: number;
  board_id: number;
}

export interface BranchesTable {
  id: Generated<number>;
  company_id: number;
  nome: string;
  cnpj: string;
  endereco: Generated<string>;
  numero: Generated<string>;
  ativo: Generated<boolean>;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  branch_id: number | null;
  filial_client_id: number | null;
  nome: string;
  email: string;
  cpf: string;
  telefone: Generated<string>;
  data_nascimento: DateText | null;
  avatar: string | null;
  role_id: number | null;
  coordenador: number | null;
  ativo: Generated<number>;
  tipo: string | null;
  is_physical_person: Generated<boolean>;
  logged_first_time: Generated<boolean>;
  verified: Generated<boolean>;
  allowed_create_users: Generated<boolean>;
  password_hash: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface UserNamesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
}

export interface MasterCpfsTable {
  cpf: string;
  company_id: number;
}

export interface PreRegisteredCpfsTable {
  id: Generated<number>;
  company_id: number;
  branch_id: number;
  cpf: string;
  role_id: number | null;
  ativo: Generated<boolean>;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface CatalogueTable {
  id: Generated<number>;
  company_id: number;
  branch_id: number;
  name: string;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface RisksTable extends CatalogueTable {
  color: string;
}

export interface EnvironmentsTable {
  id: Generated<number>;
  company_id: number;
  branch_id: number;
  name: string;
  andar: string;
  category_id: number;
  sector_id: number;
  imagem: string | null;
  hora_inicial: string | null;
  hora_final: string | null;
  qtd_limpeza_dia: number | null;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface EnvironmentRisksTable {
  environment_id: number;
  risk_id: number;
}

export interface EnvironmentProceduresTable {
  environment_id: number;
  procedure_id: number;
  mandatory: boolean;
}

export interface PeriodicitiesTable {
  id: Generated<number>;
  branch_id: number;
  nome: string;
  ativo: Generated<boolean>;
  type: "sem" | "12X";
  dias_semana: Generated<string>;
  dias_semana_2: Generated<string>;
  dias_mes: Generated<number[]>;
  datas_anuais: Generated<string[]>;
  qtd_dias: number | null;
  hora_base_inicial: string;
  hora_base_final: string;
  created_at: CreatedAt;
}

export interface RevisionsTable {
  id: Generated<number>;
  periodicity_id: number;
  branch_id: number;
  hora_inicial: string;
  hora_final: string;
}

export interface AgendasTable {
  id: Generated<number>;
  company_id: number;
  branch_id: number;
  environment_id: number;
  periodicity_id: number;
  user_id: number;
  ativo: Generated<boolean>;
  revision_photos: Generated<boolean>;
  vig_ini: DateText;
  vig_fim: DateText;
  finalizado: Generated<boolean>;
  data_finalizacao: Timestamp | null;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface BookingsTable {
  id: Generated<number>;
  agenda_id: number;
  company_id: number;
  branch_id: number;
  user_id: number;
  data_agend: DateText;
  hora_ini: string;
  hora_fim: string;
  status: "Andamento" | "Completo" | "Incompleto" | null;
  start_date: Timestamp | null;
  vira_noite: Generated<boolean>;
  justificativa: string | null;
  active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface HistoryTable {
  id: Generated<number>;
  booking_id: number;
  procedure_id: number;
  revision_id: number | null;
  user_id: number;
  image: string | null;
  observacao: string | null;
  ocorrencia: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface LegacyObservationsTable {
  id: Generated<number>;
  company_id: number;
  environment_id: number | null;
  user_id: number | null;
  observacao: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface DB {
  companies: CompaniesTable;
  boards: BoardsTable;
  company_boards: CompanyBoardsTable;
  branches: BranchesTable;
  users: UsersTable;
  user_names: UserNamesTable;
  master_cpfs: MasterCpfsTable;
  pre_registered_cpfs: PreRegisteredCpfsTable;
  sectors: CatalogueTable;
  risks: RisksTable;
  procedures: CatalogueTable;
  categories: CatalogueTable;
  environments: EnvironmentsTable;
  environment_risks: EnvironmentRisksTable;
  environment_procedures: EnvironmentProceduresTable;
  periodicities: PeriodicitiesTable;
  revisions: RevisionsTable;
  agendas: AgendasTable;
  bookings: BookingsTable;
  history: HistoryTable;
  legacy_observations: LegacyObservationsTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  outbox: OutboxTable;
  rate_limits: RateLimitsTable;
}
