import '@xyflow/react/dist/style.css';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  BOT_FINAL_ACTIONS,
  BOT_INTENTS,
  type BotAction,
  type BotGraph,
  type BotNode,
  type BotStructureIssue,
  CHAT_BOT_LIMITS,
  type ChatBotDto,
  chatBotStructureIssues,
  unconnectedNodes,
} from '@smartconnect/contracts';
import { IconArrowLeft, IconPaperclip, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type Node,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifyError, notifyMessage, notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { uploadFile } from '../chats/composer/upload.ts';
import { publishBot, saveBot, useChatBot, useOperatorChoices, useTeamChoices } from './api.ts';
import { BotNodeCard, type BotNodeData } from './bot-node.tsx';
import { emptyNode, newId, placeNode, removeNode, setNext, transitions, updateNode } from './graph.ts';
import { botKeys } from './keys.ts';

const BotSimulator = lazy(() => import('./simulator.tsx').then((m) => ({ default: m.BotSimulator })));
const nodeTypes = { bot: BotNodeCard };
type Mode = 'default' | 'move' | 'create' | 'delete';
type SaveState = 'saved' | 'unsaved' | 'saving';
const FIT = { maxZoom: 1, padding: 0.15 };
/** A new node's size before the canvas measures it (bot-node.tsx draws it 230 px wide). */
const NODE_SIZE = { width: 230, height: 120 };
/** The autosave waits this long after the last change. */
const AUTOSAVE_MS = 800;

/** /admin/preferences/chat-bots/bot?id=…: the canvas editor of one bot. */
export function BotEditorPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const bot = useChatBot(id);
  if (bot.isLoading) return <SectionLoader />;
  if (!bot.data) return <ErrorState onRetry={() => void bot.refetch()} retrying={bot.isFetching} />;
  return (
    <ReactFlowProvider>
      <BotEditor key={bot.data.id} bot={bot.data} />
    </ReactFlowProvider>
  );
}

function BotEditor({ bot }: { bot: ChatBotDto }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const flow = useReactFlow();
  const canvasRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const floating = useMediaQuery('(min-width: 62em)') ?? true;
  const [graph, setGraph] = useState<BotGraph>(bot.draft);
  const [meta, setMeta] = useState({
    name: bot.name,
    description: bot.description,
    defaultMessage: bot.defaultMessage,
  });
  const [nameError, setNameError] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('default');
  const [selected, setSelected] = useState<{ nodeId?: string; edgeId?: string } | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [serverIssues, setServerIssues] = useState<BotStructureIssue[] | null>(null);
  const [published, setPublished] = useState(bot.publishedVersion);
  const [publishing, setPublishing] = useState(false);
  const [highlighted, setHighlighted] = useState<Set<string>>(new Set());
  const [trying, setTrying] = useState(false);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ graph, meta });
  latest.current = { graph, meta };
  const teams = useTeamChoices();
  const operators = useOperatorChoices();

  // Live structure issues (§8), the same function the server runs on publish; the server's last answer too.
  const issues = useMemo(
    () => chatBotStructureIssues(graph, meta.defaultMessage),
    [graph, meta.defaultMessage],
  );
  const shown = serverIssues ?? issues;
  const unconnected = useMemo(() => new Set(unconnectedNodes(graph)), [graph]);
  const byNode = useMemo(() => {
    const m = new Map<string, BotStructureIssue[]>();
    for (const i of shown) if (i.nodeId) m.set(i.nodeId, [...(m.get(i.nodeId) ?? []), i]);
    return m;
  }, [shown]);
  const botIssues = shown.filter((i) => !i.nodeId);

  const save = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current) return true;
    const { graph: g, meta: m } = latest.current;
    if (!m.name.trim()) {
      setNameError(t('fields.nameIncorrect'));
      return false;
    }
    dirty.current = false;
    setSaveState('saving');
    try {
      const body = m.defaultMessage.trim()
        ? { ...m, draft: g }
        : { name: m.name, description: m.description, draft: g };
      await saveBot(bot.id, body);
      setNameError(null);
      if (!dirty.current) setSaveState('saved');
      void client.invalidateQueries({ queryKey: botKeys.all, exact: true });
      return true;
    } catch (err) {
      dirty.current = true;
      setSaveState('unsaved');
      if (isApiError(err) && err.code === 'chatBotNameExistsException')
        setNameError(t('errors.chatBotNameExistsException'));
      else if (isApiError(err)) notifyError(err.code);
      return false;
    }
  }, [bot.id, client, t]);

  /** Every change marks the draft unsaved and (re)starts the autosave. */
  const change = useCallback(
    (fn: (g: BotGraph) => BotGraph) => {
      setGraph(fn);
      setServerIssues(null);
      dirty.current = true;
      setSaveState('unsaved');
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), AUTOSAVE_MS);
    },
    [save],
  );
  const changeMeta = (patch: Partial<typeof meta>) => {
    setMeta((m) => ({ ...m, ...patch }));
    change((g) => g);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (dirty.current) void save();
    },
    [save],
  );

  const teamName = (id?: string | null) => teams.data?.find((x) => x.id === id)?.name;
  const operatorName = (id?: string | null) => operators.data?.find((x) => x.id === id)?.name;
  const nodes: Node<BotNodeData>[] = graph.nodes.map((n) => {
    const final = n.actions.find((a) => a.kind === 'final');
    return {
      id: n.id,
      type: 'bot',
      position: n.position,
      selected: selected?.nodeId === n.id,
      data: {
        node: n,
        issues: byNode.get(n.id) ?? [],
        unconnected: unconnected.has(n.id),
        highlighted: highlighted.has(n.id),
        selected: selected?.nodeId === n.id,
        teamName: final?.kind === 'final' ? teamName(final.teamId) : undefined,
        operatorName: final?.kind === 'final' ? operatorName(final.operatorId) : undefined,
      },
    };
  });
  const edges: Edge[] = transitions(graph).map((x) => ({
    id: `${x.nodeId}:${x.elementId}`,
    source: x.nodeId,
    sourceHandle: x.elementId,
    target: x.next,
    selected: selected?.edgeId === `${x.nodeId}:${x.elementId}`,
    animated: highlighted.has(x.nodeId) && highlighted.has(x.next),
  }));

  const onNodesChange = (changes: NodeChange[]) => {
    const moves = changes.filter((c) => c.type === 'position' && c.position);
    if (!moves.length) return;
    change((g) => ({
      nodes: g.nodes.map((n) => {
        const m = moves.find((c) => c.type === 'position' && c.id === n.id);
        return m?.type === 'position' && m.position ? { ...n, position: m.position } : n;
      }),
    }));
  };
  const onConnect = (c: Connection) => {
    if (c.sourceHandle && c.target) change((g) => setNext(g, c.source, c.sourceHandle as string, c.target));
  };
  /** A node from the toolbar lands at the centre of what the canvas shows (beside the panel over it), selected. */
  const addNode = (x?: number, y?: number) => {
    const at = x !== undefined && y !== undefined ? { x, y } : centreSpot();
    const node = emptyNode(at.x, at.y, !graph.nodes.length);
    change((g) => ({ nodes: [...g.nodes, node] }));
    setSelected({ nodeId: node.id });
    // The focus on the new node: it is seen, and Delete removes it at once.
    setTimeout(
      () => canvasRef.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${node.id}"]`)?.focus(),
      50,
    );
  };
  const centreSpot = () => {
    const r = canvasRef.current?.getBoundingClientRect();
    if (!r) return { x: 0, y: 0 };
    const p = panelRef.current?.getBoundingClientRect();
    const right = floating && p && p.left > r.left && p.left < r.right ? p.left : r.right;
    const topLeft = flow.screenToFlowPosition({ x: r.left, y: r.top });
    const bottomRight = flow.screenToFlowPosition({ x: right, y: r.bottom });
    const view = { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
    const taken = flow.getNodes().map((n) => ({
      ...n.position,
      width: n.measured?.width ?? NODE_SIZE.width,
      height: n.measured?.height ?? NODE_SIZE.height,
    }));
    const centre = { x: view.x + view.width / 2, y: view.y + view.height / 2 };
    return placeNode(centre, NODE_SIZE, taken, view);
  };
  /** §8 toasts: delete needs a selected element; the root cannot go while other nodes exist. */
  const deleteElement = (target = selected) => {
    if (!target?.nodeId && !target?.edgeId) return notifyMessage(t('chatBots.toast.selectToDelete'));
    if (target.edgeId) {
      const [nodeId, elementId] = target.edgeId.split(':');
      change((g) => setNext(g, nodeId, elementId, null));
    } else if (target.nodeId) {
      const node = graph.nodes.find((n) => n.id === target.nodeId);
      if (node?.root && graph.nodes.length > 1) return notifyMessage(t('chatBots.toast.rootNotDeleted'));
      change((g) => removeNode(g, target.nodeId as string));
    }
    setSelected(null);
  };

  const publish = async () => {
    if (!(await save())) return;
    const noTransition = issues.some(
      (i) =>
        i.code === 'emptyActionValue' && graph.nodes.some((n) => n.buttons.some((b) => b.id === i.elementId)),
    );
    if (noTransition) notifyMessage(t('chatBots.toast.buttonWithoutTransition'));
    setPublishing(true);
    try {
      const res = await publishBot(bot.id);
      setPublished(res.publishedVersion);
      setServerIssues(null);
      notifySuccess(t('chatBots.published', { n: res.publishedVersion }));
      void client.invalidateQueries({ queryKey: botKeys.all, exact: true });
    } catch (err) {
      if (isApiError(err) && err.code === 'chatBotStructureException') {
        setServerIssues((err.details?.issues as BotStructureIssue[] | undefined) ?? []);
        notifyError(err.code);
      } else if (isApiError(err)) notifyError(err.code);
    } finally {
      setPublishing(false);
    }
  };

  const selectedNode = graph.nodes.find((n) => n.id === selected?.nodeId);
  const saveLabel =
    saveState === 'saving'
      ? t('chatBots.saving')
      : saveState === 'unsaved'
        ? t('chatBots.unsaved')
        : t('chatBots.saved');

  return (
    // The whole window below the header (admin-layout.tsx): the canvas takes what the header rows leave.
    <Stack gap="sm" style={{ flex: '1 1 0', minHeight: 0 }}>
      <Paper p="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Button
              variant="subtle"
              component={Link}
              to="/admin/preferences/chat-bots"
              leftSection={<IconArrowLeft size={16} />}
              px="xs"
              data-testid="bot-editor-back"
            >
              {t('chatBots.backToList')}
            </Button>
            <Text fw={650} size="lg" component="h1" style={{ overflowWrap: 'anywhere' }}>
              {meta.name || t('chatBots.title')}
            </Text>
          </Group>
          <Group gap="xs">
            <Badge
              data-testid="save-state"
              data-state={saveState}
              color={saveState === 'saved' ? 'teal' : saveState === 'saving' ? 'blue' : 'orange'}
              variant="light"
              role="status"
            >
              {saveLabel}
            </Badge>
            <Badge variant="light" color={published === null ? 'gray' : 'teal'}>
              {published === null ? t('chatBots.notPublished') : t('chatBots.version', { n: published })}
            </Badge>
            <Button variant="default" onClick={() => setTrying(true)}>
              {t('chatBots.try')}
            </Button>
            <Button onClick={() => void publish()} loading={publishing}>
              {t('chatBots.publish')}
            </Button>
          </Group>
        </Group>
        <Group grow mt="sm" align="flex-start" wrap="wrap" preventGrowOverflow={false}>
          <TextInput
            label={t('chatBots.name')}
            required
            value={meta.name}
            error={nameError}
            onChange={(e) => changeMeta({ name: e.currentTarget.value })}
            style={{ minWidth: 200 }}
          />
          <TextInput
            label={t('chatBots.description')}
            value={meta.description}
            onChange={(e) => changeMeta({ description: e.currentTarget.value })}
            style={{ minWidth: 200 }}
          />
          <TextInput
            label={t('chatBots.defaultMessage')}
            required
            value={meta.defaultMessage}
            error={meta.defaultMessage.trim() ? null : t('fields.requiredFields')}
            onChange={(e) => changeMeta({ defaultMessage: e.currentTarget.value })}
            style={{ minWidth: 200 }}
          />
        </Group>
      </Paper>
      {botIssues.length > 0 && (
        <Alert color="red" data-testid="bot-issues">
          {botIssues.map((i) => t(`chatBots.issues.${i.code}`)).join(' · ')}
        </Alert>
      )}
      <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('chatBots.modes.label')}>
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <SegmentedControl
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            aria-label={t('chatBots.modes.label')}
            data={(['default', 'move', 'create', 'delete'] as const).map((m) => ({
              value: m,
              label: t(`chatBots.modes.${m}`),
            }))}
          />
        </div>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => addNode()}>
          {t('chatBots.addNode')}
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() => deleteElement()}
        >
          {t('chatBots.deleteElement')}
        </Button>
        <Text size="xs" c="dimmed">
          {t(`chatBots.modes.hint.${mode}`)}
        </Text>
      </Group>
      {/* Wide: the canvas fills the rest of the window, the node panel floats over its right side. A phone: the
          canvas, then the panel under it. */}
      <Box
        style={
          floating
            ? { flex: '1 1 0', minHeight: 420, position: 'relative' }
            : { display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-sm)' }
        }
      >
        <Paper
          withBorder
          ref={canvasRef}
          style={{
            ...(floating ? { position: 'absolute', inset: 0 } : { height: 480 }),
            minWidth: 0,
            cursor: mode === 'create' ? 'crosshair' : undefined,
          }}
          data-testid="bot-canvas"
          onKeyDown={(e) => {
            if (
              (e.key === 'Delete' || e.key === 'Backspace') &&
              !(e.target instanceof HTMLInputElement) &&
              !(e.target instanceof HTMLTextAreaElement)
            )
              deleteElement();
          }}
        >
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodesChange={onNodesChange}
            onConnect={onConnect}
            nodesDraggable={mode === 'default' || mode === 'move'}
            nodesConnectable={mode === 'default'}
            panOnDrag={mode !== 'create'}
            deleteKeyCode={null}
            onNodeClick={(_, n) => {
              if (mode === 'delete') deleteElement({ nodeId: n.id });
              else setSelected({ nodeId: n.id });
            }}
            onEdgeClick={(_, e) => {
              if (mode === 'delete') deleteElement({ edgeId: e.id });
              else setSelected({ edgeId: e.id });
            }}
            onPaneClick={(e) => {
              if (mode === 'create') {
                const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
                addNode(p.x, p.y);
              } else setSelected(null);
            }}
            fitView
            fitViewOptions={FIT}
            minZoom={0.2}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </Paper>
        <Paper
          withBorder
          p="sm"
          ref={panelRef}
          shadow={floating ? 'md' : undefined}
          style={
            floating
              ? {
                  position: 'absolute',
                  top: 12,
                  right: 12,
                  width: 360,
                  maxHeight: 'calc(100% - 24px)',
                  overflow: 'auto',
                  zIndex: 5,
                }
              : { maxHeight: 560, overflow: 'auto' }
          }
          data-testid="node-panel"
        >
          {trying ? (
            <Suspense fallback={<SectionLoader />}>
              <BotSimulator
                graph={graph}
                defaultMessage={meta.defaultMessage}
                onPath={(ids) => setHighlighted(new Set(ids))}
                onClose={() => setTrying(false)}
              />
            </Suspense>
          ) : selectedNode ? (
            <NodePanel
              node={selectedNode}
              graph={graph}
              issues={byNode.get(selectedNode.id) ?? []}
              onChange={(fn) => change((g) => updateNode(g, selectedNode.id, fn))}
              onRoot={() =>
                change((g) => ({ nodes: g.nodes.map((n) => ({ ...n, root: n.id === selectedNode.id })) }))
              }
              teams={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
              operators={(operators.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('chatBots.panel.selectNode')}
            </Text>
          )}
        </Paper>
      </Box>
    </Stack>
  );
}

type Choice = { value: string; label: string };
const NEXT_CODES: string[] = ['emptyActionValue', 'unknownTransition'];

function NodePanel(props: {
  node: BotNode;
  graph: BotGraph;
  issues: BotStructureIssue[];
  onChange: (fn: (n: BotNode) => BotNode) => void;
  onRoot: () => void;
  teams: Choice[];
  operators: Choice[];
}) {
  const { t } = useTranslation();
  const { node, onChange } = props;
  const targets = props.graph.nodes.map((n, i) => ({
    value: n.id,
    label: `${i + 1}. ${n.reply.text.slice(0, 40) || t('chatBots.node.noReply')}`,
  }));
  /** An element's issue: about its transition (`next`) or about the element itself. */
  const elementIssue = (id: string, about: 'self' | 'next' = 'self') => {
    const i = props.issues.find(
      (x) => x.elementId === id && NEXT_CODES.includes(x.code) === (about === 'next'),
    );
    return i ? t(`chatBots.issues.${i.code}`) : null;
  };
  const nextSelect = (label: string, value: string | null, set: (v: string | null) => void, id: string) => (
    <Select
      label={label}
      size="xs"
      data={targets}
      value={value}
      onChange={set}
      placeholder={t('chatBots.panel.chooseNode')}
      clearable
      error={elementIssue(id, 'next')}
    />
  );
  const final = node.actions.find((a) => a.kind === 'final');
  const def = node.actions.find((a) => a.kind === 'default');
  const setFinal = (type: string | null) =>
    onChange((n) => ({
      ...n,
      actions: [
        ...n.actions.filter((a) => a.kind !== 'final'),
        ...(type
          ? [
              {
                id: final?.id ?? newId('final'),
                kind: 'final' as const,
                type: type as (typeof BOT_FINAL_ACTIONS)[number],
              },
            ]
          : []),
      ],
    }));
  const patchFinal = (p: Partial<Extract<BotAction, { kind: 'final' }>>) =>
    onChange((n) => ({ ...n, actions: n.actions.map((a) => (a.kind === 'final' ? { ...a, ...p } : a)) }));
  const remove = <K extends 'buttons' | 'triggers' | 'intents'>(key: K, id: string) =>
    onChange((n) => ({ ...n, [key]: (n[key] as { id: string }[]).filter((x) => x.id !== id) }));

  return (
    // Small field errors need the darker red to keep their contrast (WCAG AA).
    <Stack
      gap="sm"
      data-testid="node-editor"
      style={{ '--mantine-color-error': 'var(--mantine-color-red-8)' } as CSSProperties}
    >
      <Group justify="space-between">
        <Text fw={600}>{t('chatBots.panel.title')}</Text>
        <Checkbox
          label={t('chatBots.node.root')}
          checked={node.root}
          onChange={() => props.onRoot()}
          disabled={node.root}
        />
      </Group>
      <Textarea
        label={t('chatBots.panel.reply')}
        autosize
        minRows={2}
        maxLength={CHAT_BOT_LIMITS.replyTextMax}
        value={node.reply.text}
        onChange={(e) => {
          const text = e.currentTarget.value;
          onChange((n) => ({ ...n, reply: { ...n.reply, text } }));
        }}
      />
      <ReplyFile
        fileId={node.reply.fileId}
        fileName={node.reply.fileName}
        onChange={(fileId, fileName) =>
          onChange((n) => ({
            ...n,
            reply: fileId ? { ...n.reply, fileId, fileName } : { text: n.reply.text, fileId: null },
          }))
        }
      />

      <Text size="sm" fw={600}>
        {t('chatBots.panel.buttons')}
      </Text>
      {node.buttons.map((b, i) => (
        <Paper key={b.id} withBorder p="xs">
          <Group gap={4} align="flex-end" wrap="nowrap">
            <TextInput
              size="xs"
              label={t('chatBots.panel.buttonText', { n: i + 1 })}
              value={b.text}
              style={{ flex: 1 }}
              error={elementIssue(b.id)}
              onChange={(e) => {
                const text = e.currentTarget.value;
                onChange((n) => ({
                  ...n,
                  buttons: n.buttons.map((x) => (x.id === b.id ? { ...x, text } : x)),
                }));
              }}
            />
            <TextInput
              size="xs"
              w={72}
              maxLength={1}
              label={t('chatBots.voipKey', { n: i + 1 })}
              placeholder={t('chatBots.voipKeyHint')}
              value={b.voip ?? ''}
              error={
                props.issues.some((x) => x.elementId === b.id && x.code === 'invalidVoipButton')
                  ? t('chatBots.issues.invalidVoipButton')
                  : null
              }
              onChange={(e) => {
                const voip = e.currentTarget.value || undefined;
                onChange((n) => ({
                  ...n,
                  buttons: n.buttons.map((x) => (x.id === b.id ? { ...x, voip } : x)),
                }));
              }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('chatBots.panel.removeButton', { n: i + 1 })}
              onClick={() => remove('buttons', b.id)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
          {nextSelect(
            t('chatBots.panel.goesTo'),
            b.next,
            (v) =>
              onChange((n) => ({
                ...n,
                buttons: n.buttons.map((x) => (x.id === b.id ? { ...x, next: v } : x)),
              })),
            b.id,
          )}
        </Paper>
      ))}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        disabled={node.buttons.length >= CHAT_BOT_LIMITS.buttonsMax}
        onClick={() =>
          onChange((n) => ({ ...n, buttons: [...n.buttons, { id: newId('btn'), text: '', next: null }] }))
        }
      >
        {t('chatBots.panel.addButton')}
      </Button>

      <Text size="sm" fw={600}>
        {t('chatBots.panel.triggers')}
      </Text>
      {node.triggers.map((tr, i) => {
        const set = (p: Partial<typeof tr>) =>
          onChange((n) => ({ ...n, triggers: n.triggers.map((x) => (x.id === tr.id ? { ...x, ...p } : x)) }));
        return (
          <Paper key={tr.id} withBorder p="xs">
            <Group gap={4} grow>
              <TextInput
                size="xs"
                type="time"
                label={t('chatBots.panel.start')}
                value={tr.start}
                onChange={(e) => set({ start: e.currentTarget.value })}
              />
              <TextInput
                size="xs"
                type="time"
                label={t('chatBots.panel.end')}
                value={tr.end}
                onChange={(e) => set({ end: e.currentTarget.value })}
              />
            </Group>
            <Select
              size="xs"
              searchable
              label={t('chatBots.panel.timeZone')}
              data={ZONES}
              value={tr.timeZone}
              onChange={(v) => set({ timeZone: v ?? '' })}
              error={elementIssue(tr.id)}
            />
            {nextSelect(t('chatBots.panel.goesTo'), tr.next, (v) => set({ next: v }), tr.id)}
            <Button size="xs" variant="subtle" color="red" mt={4} onClick={() => remove('triggers', tr.id)}>
              {t('chatBots.panel.removeTrigger', { n: i + 1 })}
            </Button>
          </Paper>
        );
      })}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        disabled={node.triggers.length >= CHAT_BOT_LIMITS.triggersMax}
        onClick={() =>
          onChange((n) => ({
            ...n,
            triggers: [
              ...n.triggers,
              {
                id: newId('trg'),
                start: '09:00',
                end: '18:00',
                timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
                next: null,
              },
            ],
          }))
        }
      >
        {t('chatBots.panel.addTrigger')}
      </Button>

      <Text size="sm" fw={600}>
        {t('chatBots.panel.intents')}
      </Text>
      {node.intents.map((it, i) => {
        const set = (p: Partial<typeof it>) =>
          onChange((n) => ({ ...n, intents: n.intents.map((x) => (x.id === it.id ? { ...x, ...p } : x)) }));
        return (
          <Paper key={it.id} withBorder p="xs">
            <Select
              size="xs"
              label={t('chatBots.panel.intent', { n: i + 1 })}
              data={BOT_INTENTS.map((v) => ({ value: v, label: t(`routingRules.intents.${v}`) }))}
              value={it.intent}
              placeholder={t('chatBots.panel.chooseIntent')}
              onChange={(v) => set({ intent: v as (typeof BOT_INTENTS)[number] | null })}
              error={elementIssue(it.id)}
            />
            {nextSelect(t('chatBots.panel.goesTo'), it.next, (v) => set({ next: v }), it.id)}
            <Button size="xs" variant="subtle" color="red" mt={4} onClick={() => remove('intents', it.id)}>
              {t('chatBots.panel.removeIntent', { n: i + 1 })}
            </Button>
          </Paper>
        );
      })}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        disabled={node.intents.length >= CHAT_BOT_LIMITS.intentsMax}
        onClick={() =>
          onChange((n) => ({ ...n, intents: [...n.intents, { id: newId('int'), intent: null, next: null }] }))
        }
      >
        {t('chatBots.panel.addIntent')}
      </Button>

      <Checkbox
        label={t('chatBots.panel.defaultAction')}
        checked={!!def}
        onChange={(e) => {
          const on = e.currentTarget.checked;
          onChange((n) => ({
            ...n,
            actions: on
              ? [...n.actions, { id: newId('def'), kind: 'default' as const, next: null }]
              : n.actions.filter((a) => a.kind !== 'default'),
          }));
        }}
      />
      {def?.kind === 'default' &&
        nextSelect(
          t('chatBots.panel.goesTo'),
          def.next,
          (v) =>
            onChange((n) => ({
              ...n,
              actions: n.actions.map((a) => (a.kind === 'default' ? { ...a, next: v } : a)),
            })),
          def.id,
        )}

      <Select
        label={t('chatBots.panel.finalAction')}
        data={BOT_FINAL_ACTIONS.map((v) => ({ value: v, label: t(`chatBots.final.${v}`) }))}
        value={final?.kind === 'final' ? final.type : null}
        placeholder={t('chatBots.panel.noFinal')}
        clearable
        onChange={setFinal}
        error={final ? elementIssue(final.id, 'next') : null}
      />
      {final?.kind === 'final' && final.type === 'team' && (
        <Select
          label={t('chatBots.panel.team')}
          data={props.teams}
          value={final.teamId ?? null}
          searchable
          onChange={(v) => patchFinal({ teamId: v })}
        />
      )}
      {final?.kind === 'final' && final.type === 'operator' && (
        <Select
          label={t('chatBots.panel.operator')}
          data={props.operators}
          value={final.operatorId ?? null}
          searchable
          onChange={(v) => patchFinal({ operatorId: v })}
        />
      )}
      {props.issues.length > 0 && (
        <Alert color="red" p="xs">
          {props.issues.map((i) => t(`chatBots.issues.${i.code}`)).join(' · ')}
        </Alert>
      )}
    </Stack>
  );
}

const ZONES: string[] = (() => {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

const IMAGE_NAME = /\.(jpe?g|png|gif|webp)$/i;

/**
 * The node's reply file (§2.6, §5 Node 'bot reply as text or file'): uploaded through POST /api/files as the composer
 * does; the node keeps the file's key and name. An image shows a small preview; the file can be removed.
 */
function ReplyFile(props: {
  fileId: string | null;
  fileName: string | undefined;
  onChange: (fileId: string | null, fileName?: string) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | null) => {
    if (!file) return;
    setBusy(true);
    try {
      const a = await uploadFile(file, () => {});
      props.onChange(a.url.split('/').pop() ?? null, a.name || file.name);
    } catch (err) {
      notifyError(err instanceof Error ? err.message : 'unknownException');
    } finally {
      setBusy(false);
    }
  };
  if (props.fileId) {
    const name = props.fileName || props.fileId;
    return (
      <Group gap="xs" wrap="nowrap" data-testid="reply-file">
        {IMAGE_NAME.test(name) ? (
          <img
            src={`/api/files/${props.fileId}`}
            alt=""
            width={40}
            height={40}
            style={{ objectFit: 'cover', borderRadius: 4 }}
          />
        ) : (
          <IconPaperclip size={16} aria-hidden />
        )}
        <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {name}
        </Text>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('chatBots.removeFile', { name })}
          onClick={() => props.onChange(null)}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <FileButton onChange={pick}>
      {(p) => (
        <Button
          {...p}
          size="xs"
          variant="light"
          leftSection={<IconPaperclip size={14} />}
          loading={busy}
          aria-label={busy ? t('chatBots.uploading') : undefined}
        >
          {t('chatBots.attachFile')}
        </Button>
      )}
    </FileButton>
  );
}
