/** The FAQ page's content (spec 000 §1 names nine entries but gives none; these are ours). */
export const FAQ: { question: string; answer: string }[] = [
  {
    question: "Como cadastro um novo ambiente?",
    answer:
      "Antes, cadastre ao menos uma categoria, um setor, um risco e um procedimento na filial. Depois abra Cadastros > Ambientes, aba 'Cadastrar ambiente', escolha a filial, preencha nome e andar, marque os riscos e os procedimentos obrigatórios ou opcionais e clique em Cadastrar.",
  },
  {
    question: "Para que serve o QR Code de um ambiente?",
    answer:
      "O QR Code fica afixado na porta do ambiente. O colaborador o lê com o celular para registrar a limpeza, e qualquer pessoa pode ver as últimas e as próximas limpezas daquele ambiente na página pública do ambiente. Você pode baixá-lo em PDF, PNG, JPEG ou SVG na lista de ambientes.",
  },
  {
    question: "Como agendo a limpeza de um ambiente?",
    answer:
      "Em Cadastros > Agendamento, aba 'Cadastrar agendamentos', escolha a filial e o colaborador, clique em 'Criar novo item', escolha o ambiente, a periodicidade (Semanal ou 12X), os horários da limpeza e das revisões e o período de vigência. As limpezas passam a aparecer no painel e na agenda.",
  },
  {
    question: "Qual a diferença entre as periodicidades Semanal e 12X?",
    answer:
      "Semanal repete a limpeza nos dias da semana marcados (por exemplo, segunda a sexta). 12X é 'dia sim, dia não': a limpeza acontece em dias alternados a partir do início da vigência.",
  },
  {
    question: "Como cadastro vários setores, riscos, procedimentos ou categorias de uma vez?",
    answer:
      "Na aba de cadastro, escolha 'Cadastro em lote', clique em 'Baixar Modelo' para obter a planilha CSV pré-formatada, preencha uma linha por item (o Excel pode salvar com ponto e vírgula), escolha a filial e envie o arquivo. Se alguma linha tiver erro, nada é gravado e a mensagem diz qual linha corrigir.",
  },
  {
    question: "Como um novo colaborador consegue acessar o sistema?",
    answer:
      "Primeiro pré-cadastre o CPF dele em Usuários > Pré-cadastro, escolhendo a filial e o nível de acesso. Depois ele mesmo se cadastra pela tela inicial, em 'Cadastrar', usando esse CPF. Colaboradores ASG usam o aplicativo de execução; o acesso deles a este painel é bloqueado.",
  },
  {
    question: "Esqueci minha senha. O que faço?",
    answer:
      "Na tela de entrada, clique em 'Esqueci minha senha' e informe o e-mail do seu cadastro. Você receberá um link que vale por 1 hora para escolher uma nova senha. Por segurança, o link só funciona uma vez.",
  },
  {
    question: "Posso compartilhar um relatório com outra pessoa?",
    answer:
      "Sim. Os filtros, a página e a ordenação de cada lista e relatório ficam no endereço da página. Copie o endereço e envie por e-mail: quem tiver acesso abre a mesma visão depois de entrar no sistema. Para levar os dados para fora, use 'Exportar Excel' ou 'Exportar PDF'.",
  },
  {
    question: "Por que não vejo todas as filiais ou não consigo editar um cadastro?",
    answer:
      "O que você vê depende do seu nível de acesso. Coordenadores e usuários sem nível veem apenas a própria filial e não editam cadastros de outras; administradores veem todas as filiais da empresa principal. Se precisar de mais acesso, fale com o administrador do sistema.",
  },
];
