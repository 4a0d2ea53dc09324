import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import {
  FormActions,
  Outcome,
  PagedList,
  Section,
  Table,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { Dialog, RowAction } from '../../components/ui.tsx'

// Venues waiting for verification, oldest request first: approve, or reject with a reason the
// owner sees on their Verification page.

type Venue = Schemas['Venue']

export function VerificationQueue() {
  const [page, setPage] = useState(1)
  const queue = useLoad(
    () => ok(api().GET('/api/admin/venues/verification-requests', { params: { query: { page, per_page: 20 } } })),
    [page],
  )
  const f = useForm({})
  const [rejecting, setRejecting] = useState<Venue | null>(null)

  async function approve(v: Venue) {
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/admin/venues/{venue}/verification/approve', { params: { path: { venue: String(v.id) } } }),
      )
      queue.reload()
      return `${v.name}: ${answer.message}`
    })
  }

  return (
    <Section title="Verification queue">
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={queue}
        loading="Loading the queue"
        empty="No venue is waiting for verification."
        label="Verification queue pages"
        onPage={setPage}
      >
        {(rows) => (
          <Table
            caption="Venues waiting for verification"
            columns={['Venue', 'Place', 'Contact', 'Requested', 'Note', 'Actions']}
          >
            {rows.map((v) => (
              <tr key={v.id}>
                <td>
                  <strong>{v.name}</strong>
                </td>
                <td>
                  {v.address}, {v.city}
                </td>
                <td>
                  {v.phone ?? ''} {v.email ?? ''}
                </td>
                <td>{v.verification_requested_at ?? ''}</td>
                <td>{v.verification_note ?? ''}</td>
                <td class="row-actions">
                  <RowAction label="Approve" of={v.name} disabled={f.busy} onClick={() => approve(v)} primary />
                  <RowAction label="Reject" of={v.name} onClick={() => setRejecting(v)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </PagedList>
      {rejecting && (
        <RejectDialog
          venue={rejecting}
          onClose={() => setRejecting(null)}
          onDone={(message) => {
            setRejecting(null)
            f.setError(null)
            f.setNotice(message)
            queue.reload()
          }}
        />
      )}
    </Section>
  )
}

function RejectDialog({
  venue,
  onClose,
  onDone,
}: {
  venue: Venue
  onClose: () => void
  onDone: (message: string) => void
}) {
  const f = useForm({ reason: '' })
  async function reject(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/admin/venues/{venue}/verification/reject', {
          params: { path: { venue: String(venue.id) } },
          body: { reason: f.values.reason.trim() || null },
        }),
      )
      onDone(`${venue.name}: ${answer.message}`)
      return undefined
    })
  }
  return (
    <Dialog title={`Reject ${venue.name}?`} onClose={onClose}>
      <form onSubmit={reject}>
        <Outcome error={f.error} notice={f.notice} />
        <TextAreaField label="Reason" hint="The owner sees this on their Verification page." {...f.bind('reason')} />
        <FormActions submit="Reject verification" busy={f.busy} onCancel={onClose} danger />
      </form>
    </Dialog>
  )
}
