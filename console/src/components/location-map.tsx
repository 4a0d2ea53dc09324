import 'leaflet/dist/leaflet.css'
import L from 'leaflet'
import { useEffect, useRef } from 'preact/hooks'
import { api, ok } from '../api.ts'
import { t, useLang } from '../i18n/index.ts'

// The venue's location on a map (issue 51; docs/console.md, "Location"): Leaflet with the server's
// tile template (GET /api/map: MAP_TILE_URL, or none, when the map is a plain background). A click
// puts the marker there and a drag moves it; both write the latitude and longitude fields, which stay
// editable by hand (typing moves the marker). The marker is a div icon styled by styles.css: no image
// to fetch, so the map works offline and under the console's CSP.

/** Kathmandu, where the map opens when the coordinates are not set yet. */
const KATHMANDU: [number, number] = [27.7172, 85.324]

const parse = (text: string): number | null => {
  const n = Number(text.trim())
  return text.trim() !== '' && Number.isFinite(n) ? n : null
}
const six = (n: number) => n.toFixed(6)

export function LocationMap({
  latitude,
  longitude,
  onPick,
}: {
  latitude: string
  longitude: string
  onPick: (latitude: string, longitude: string) => void
}) {
  const box = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map | null>(null)
  const marker = useRef<L.Marker | null>(null)
  const pick = useRef(onPick)
  pick.current = onPick
  const lang = useLang()

  useEffect(() => {
    if (!box.current) return
    const lat = parse(latitude)
    const lng = parse(longitude)
    const at: [number, number] = lat !== null && lng !== null ? [lat, lng] : KATHMANDU
    // The zoom buttons are added by the language effect below, with their titles in the language shown.
    const m = L.map(box.current, {
      center: at,
      zoom: lat !== null ? 16 : 12,
      attributionControl: true,
      zoomControl: false,
    })
    map.current = m
    const icon = L.divIcon({ className: 'map-pin', iconSize: [22, 22], iconAnchor: [11, 22] })
    const pin = L.marker(at, {
      draggable: true,
      icon,
      keyboard: true,
      title: t('map.marker'),
      alt: t('map.marker'),
    })
    pin.addTo(m)
    marker.current = pin
    pin.on('dragend', () => {
      const p = pin.getLatLng()
      pick.current(six(p.lat), six(p.lng))
    })
    m.on('click', (e: L.LeafletMouseEvent) => {
      pin.setLatLng(e.latlng)
      pick.current(six(e.latlng.lat), six(e.latlng.lng))
    })
    let live = true
    ok(api().GET('/api/map'))
      .then((r) => {
        if (live && r.data.tile_url) {
          L.tileLayer(r.data.tile_url, { attribution: r.data.attribution, maxZoom: 19 }).addTo(m)
        }
      })
      .catch(() => undefined) // No tiles: the marker still works on the plain background.
    return () => {
      live = false
      m.remove()
    }
    // The map is made once; the fields move the marker below.
  }, [])

  // The marker's name and the zoom buttons' titles follow the language switch.
  useEffect(() => {
    const m = map.current
    const pin = marker.current?.getElement()
    if (!m) return
    pin?.setAttribute('title', t('map.marker'))
    const zoom = L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(m)
    return () => {
      zoom.remove()
    }
  }, [lang])

  // Typed coordinates move the marker (and the view) when both are numbers.
  useEffect(() => {
    const lat = parse(latitude)
    const lng = parse(longitude)
    if (lat === null || lng === null || !marker.current || !map.current) return
    const now = marker.current.getLatLng()
    if (Math.abs(now.lat - lat) < 1e-7 && Math.abs(now.lng - lng) < 1e-7) return
    marker.current.setLatLng([lat, lng])
    map.current.panTo([lat, lng])
  }, [latitude, longitude])

  return (
    <div class="field">
      <span id="location-map-label">{t('map.label')}</span>
      <div
        ref={box}
        class="location-map"
        role="application"
        aria-labelledby="location-map-label"
        aria-describedby="location-map-hint"
        data-testid="location-map"
      />
      <p class="hint" id="location-map-hint">
        {t('map.hint')}
      </p>
    </div>
  )
}
